/** Saving a file the API answered (an export) under the name the server gave it. */

/** The file name of a Content-Disposition header, else `fallback`. */
export function fileNameFromDisposition(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const encoded = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/u.exec(disposition)?.[1];
  if (encoded) {
    try {
      return safeName(decodeURIComponent(encoded.trim())) ?? fallback;
    } catch {
      // Malformed percent-encoding: try the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/u.exec(disposition);
  return safeName((plain?.[1] ?? plain?.[2] ?? '').trim()) ?? fallback;
}

/** No paths, no control characters, something left. */
function safeName(name: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.replace(/[/\\\u0000-\u001f]/gu, '').trim();
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? undefined : cleaned;
}

export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
