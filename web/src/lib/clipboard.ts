/** Copy text, answering whether it worked (the Clipboard API needs a secure context and permission). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
