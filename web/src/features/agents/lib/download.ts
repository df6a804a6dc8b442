/** `knowledge-acme-retail-2025-03-04.csv`: what to call an export the server did not name. */
export function exportFallbackName(clientName: string, format: 'csv' | 'json', now: Date): string {
  const slug = clientName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, '-')
    .replace(/^-+|-+$/gu, '')
    .slice(0, 40);
  return `knowledge-${slug === '' ? 'export' : slug}-${now.toISOString().slice(0, 10)}.${format}`;
}
