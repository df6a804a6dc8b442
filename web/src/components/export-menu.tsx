import { ChevronDown, Download, FileSpreadsheet, FileText } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';

/** A file the menu offers: the server answers it as an attachment, so a plain link downloads it with the session cookie. */
export interface ExportFile {
  format: 'pdf' | 'csv';
  label: string;
  href: string;
  /** Shown as the link's tooltip: what the file holds. */
  title?: string;
}

/** "Export …" with a menu of the files of what the page shows (a PDF report, a CSV of the figures). */
export function ExportMenu({ label, files }: { label: string; files: readonly ExportFile[] }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline">
          <Download aria-hidden />
          {label}
          <ChevronDown aria-hidden className="opacity-60" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {files.map((file) => (
          <DropdownMenuItem key={file.href} asChild>
            <a href={file.href} download title={file.title}>
              {file.format === 'pdf' ? <FileText aria-hidden /> : <FileSpreadsheet aria-hidden />}
              {file.label}
            </a>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
