/** How a stat card says its week-over-week change (docs/admin-settings.md, "Admin dashboard"). */
import { percentChange } from '@common/api/dashboard';

export interface Change {
  /** "+12% vs the previous 7 days", "No change vs the previous 7 days", "None in the previous 7 days". */
  text: string;
  direction: 'up' | 'down' | 'flat' | 'none';
  /** Whether the change is good news (green), bad (red) or neither. */
  sentiment: 'good' | 'bad' | 'neutral';
}

const VS = 'vs the previous 7 days';

/**
 * The change from the previous window to the current one. `better`: which way is good news
 * ('higher', 'lower', or 'neither' for a figure that is not good or bad in itself).
 */
export function weekOverWeek(current: number | null, previous: number | null, better: 'higher' | 'lower' | 'neither'): Change {
  const flat: Change = { text: `No change ${VS}`, direction: 'flat', sentiment: 'neutral' };
  if (current === null) return { text: 'Nothing to compare this week', direction: 'none', sentiment: 'neutral' };
  if (previous === null) return { text: 'Nothing to compare with the previous 7 days', direction: 'none', sentiment: 'neutral' };
  const upSentiment = better === 'higher' ? 'good' : better === 'lower' ? 'bad' : 'neutral';
  const downSentiment = better === 'higher' ? 'bad' : better === 'lower' ? 'good' : 'neutral';
  if (previous === 0) return current === 0 ? flat : { text: 'None in the previous 7 days', direction: 'up', sentiment: upSentiment };
  const percent = percentChange(current, previous) ?? 0;
  if (percent === 0) return flat;
  return percent > 0
    ? { text: `+${percent}% ${VS}`, direction: 'up', sentiment: upSentiment }
    : { text: `−${Math.abs(percent)}% ${VS}`, direction: 'down', sentiment: downSentiment };
}
