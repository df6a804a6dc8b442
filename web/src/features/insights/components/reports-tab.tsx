import { Download, FileSpreadsheet } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

/** Reports: the period's figures as a CSV file; what is not built is said plainly. */
export function ReportsTab({ exportUrl, periodText }: { exportUrl: string; periodText: string }) {
  return (
    <Card role="region" aria-labelledby="insights-reports" className="min-w-0">
      <CardHeader>
        <CardTitle id="insights-reports" className="flex items-center gap-2">
          <FileSpreadsheet aria-hidden className="size-4 text-primary" />
          Reports
        </CardTitle>
        <CardDescription>The figures on this page for the chosen period and client, as a spreadsheet file.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-wrap items-center gap-3">
          <Button asChild>
            <a href={exportUrl} download>
              <Download aria-hidden />
              Download CSV
            </a>
          </Button>
          <span className="text-sm text-muted-foreground">{periodText}</span>
        </div>
        <p className="text-sm text-muted-foreground">PDF reports and e-mailed reports are not built yet.</p>
      </CardContent>
    </Card>
  );
}
