/**
 * The data a server-rendered document carries for the app's first render (common/prerender.ts):
 * read once, from `<script type="application/json" id="parley-boot">`; undefined elsewhere.
 */
import { BOOT_DATA_ID, type BootData } from '@common/prerender';

let boot: Partial<BootData> | undefined;

export function bootData(): Partial<BootData> {
  if (boot) return boot;
  boot = {};
  const element = typeof document === 'undefined' ? null : document.getElementById(BOOT_DATA_ID);
  if (element?.textContent) {
    try {
      boot = JSON.parse(element.textContent) as Partial<BootData>;
    } catch {
      // A document without valid boot data: the app asks the API instead.
    }
  }
  return boot;
}
