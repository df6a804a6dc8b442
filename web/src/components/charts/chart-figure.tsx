import { Table2 } from 'lucide-react';
import { Suspense, useId, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';

export interface FigureColumn<Row> {
  header: string;
  cell: (row: Row) => string;
}

/**
 * A chart with its data as a table: the table is always there for screen readers (the drawing is
 * hidden from them), and "Show as table" puts it on screen instead of the drawing. The drawing
 * (recharts, loaded on demand) waits behind a placeholder of its size.
 */
export function ChartFigure<Row>({
  title,
  description,
  rows,
  rowKey,
  rowHeader,
  rowHeaderLabel,
  columns,
  chart,
  empty,
  height = 'h-64',
}: {
  title: string;
  description?: ReactNode;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowHeader: (row: Row) => string;
  rowHeaderLabel: string;
  columns: readonly FigureColumn<Row>[];
  chart: ReactNode;
  /** Said instead of the chart and the table when there is nothing to draw. */
  empty?: string | null;
  height?: string;
}) {
  const [asTable, setAsTable] = useState(false);
  const captionId = useId();
  const descriptionId = useId();

  return (
    <figure aria-labelledby={captionId} aria-describedby={description ? descriptionId : undefined} className="m-0 grid min-w-0 gap-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid min-w-0 gap-0.5">
          <figcaption id={captionId} className="font-medium">
            {title}
          </figcaption>
          {description ? (
            <p id={descriptionId} className="text-xs text-muted-foreground">
              {description}
            </p>
          ) : null}
        </div>
        {empty ? null : (
          <Button variant="ghost" size="sm" aria-pressed={asTable} onClick={() => setAsTable((v) => !v)}>
            <Table2 aria-hidden />
            Show as table
          </Button>
        )}
      </div>
      {empty ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">{empty}</p>
      ) : (
        <>
          {asTable ? null : (
            <div aria-hidden className={cn('min-w-0', height)}>
              <Suspense fallback={<Skeleton className="size-full" />}>{chart}</Suspense>
            </div>
          )}
          <div className={asTable ? 'min-w-0 overflow-x-auto' : 'sr-only'}>
            <table aria-label={title} className="w-full text-sm">
              <thead>
                <tr className="border-b">
                  <th scope="col" className="h-9 px-2 text-left font-medium whitespace-nowrap text-muted-foreground">
                    {rowHeaderLabel}
                  </th>
                  {columns.map((column) => (
                    <th key={column.header} scope="col" className="h-9 px-2 text-right font-medium whitespace-nowrap text-muted-foreground">
                      {column.header}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={rowKey(row)} className="border-b last:border-0">
                    <th scope="row" className="p-2 text-left font-normal">
                      {rowHeader(row)}
                    </th>
                    {columns.map((column) => (
                      <td key={column.header} className="p-2 text-right tabular-nums">
                        {column.cell(row)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </figure>
  );
}
