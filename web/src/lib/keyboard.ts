/** Enter sends, Shift+Enter starts a new line; an Enter that confirms an IME composition does neither. */
export function isSendKey(event: { key: string; shiftKey: boolean; nativeEvent?: { isComposing?: boolean } }): boolean {
  return event.key === 'Enter' && !event.shiftKey && event.nativeEvent?.isComposing !== true;
}
