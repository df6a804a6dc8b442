/** A stored section document shown read-only (a revision's content): field names and their texts. */
function labelOf(key: string): string {
  const words = key.replace(/([a-z])([A-Z])/gu, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function ContentView({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return <span className="text-muted-foreground">—</span>;
  if (typeof value === 'boolean') return <span>{value ? 'Yes' : 'No'}</span>;
  if (typeof value === 'string' || typeof value === 'number') return <span className="break-words whitespace-pre-wrap">{String(value)}</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="text-muted-foreground">None</span>;
    return (
      <ol className="grid list-decimal gap-2 pl-5">
        {(value as unknown[]).map((item, i) => (
          // A stored document has no ids for its list items; their position is their identity here.
          <li key={i} className="min-w-0">
            <ContentView value={item} />
          </li>
        ))}
      </ol>
    );
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return <span className="text-muted-foreground">None</span>;
    return (
      <dl className="grid min-w-0 gap-2">
        {entries.map(([key, item]) => (
          <div key={key} className="grid min-w-0 gap-0.5">
            <dt className="text-xs font-medium text-muted-foreground">{labelOf(key)}</dt>
            <dd className="min-w-0 text-sm">
              <ContentView value={item} />
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  return null;
}
