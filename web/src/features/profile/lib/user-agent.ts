/** "Chrome on macOS" from a User-Agent header: enough to recognise one's own devices. */
export function describeUserAgent(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser =
    /Edg\//u.test(userAgent)
      ? 'Edge'
      : /OPR\//u.test(userAgent)
        ? 'Opera'
        : /Firefox\//u.test(userAgent)
          ? 'Firefox'
          : /(Chrome|Chromium|CriOS)\//u.test(userAgent)
            ? 'Chrome'
            : /Safari\//u.test(userAgent)
              ? 'Safari'
              : /curl|node|undici|axios|python/iu.test(userAgent)
                ? 'Script'
                : 'Browser';
  const os = /Android/u.test(userAgent)
    ? 'Android'
    : /iPhone|iPad|iPod/u.test(userAgent)
      ? 'iOS'
      : /Windows/u.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/u.test(userAgent)
          ? 'macOS'
          : /CrOS/u.test(userAgent)
            ? 'ChromeOS'
            : /Linux/u.test(userAgent)
              ? 'Linux'
              : null;
  return os ? `${browser} on ${os}` : browser;
}

/** The base32 secret of an otpauth:// URI, for people who type it instead of scanning. */
export function totpSecretOf(totpUri: string): string | null {
  try {
    return new URL(totpUri).searchParams.get('secret');
  } catch {
    return null;
  }
}

/** The QR code SVG as an <img> source: the CSP allows data: images, and no markup is injected. */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
