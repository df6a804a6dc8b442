import { Download, FileSpreadsheet, FileText } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

/** The reports by e-mail (issue 16 §5, docs/insights.md "Reports by e-mail"), which each person switches on. */
export const EMAILED_REPORTS = 'A weekly summary of these figures every Monday (and for administrators a daily one every morning) can come by e-mail:';

/** Reports: the period's figures as a CSV file and as a PDF report, and where to switch on the e-mailed ones. */
export function ReportsTab({ exportUrl, pdfUrl, periodText }: { exportUrl: string; pdfUrl: string; periodText: string }) {
  return (
    <Card role="region" aria-labelledby="insights-reports" className="min-w-0">
      <CardHeader>
        <CardTitle id="insights-reports" className="flex items-center gap-2">
          <FileSpreadsheet aria-hidden className="size-4 text-primary" />
          Reports
        </CardTitle>
        <CardDescription>
          The figures on this page for the chosen period and client, as a spreadsheet file or as a PDF report with its tables and charts.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-wrap items-center gap-3">
          <Button asChild>
            <a href={exportUrl} download>
              <Download aria-hidden />
              Download CSV
            </a>
          </Button>
          <Button asChild variant="outline">
            <a href={pdfUrl} download>
              <FileText aria-hidden />
              Download PDF
            </a>
          </Button>
          <span className="text-sm text-muted-foreground">{periodText}</span>
        </div>
        <p className="text-sm text-muted-foreground">
          {EMAILED_REPORTS}{' '}
          <Link to="/profile?tab=notifications" className="font-medium text-primary underline-offset-4 hover:underline">
            choose them in your notification preferences
          </Link>
          .
        </p>
      </CardContent>
    </Card>
  );
}
