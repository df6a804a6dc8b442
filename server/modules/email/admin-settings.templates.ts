/** E-mails of Admin Settings → Notifications' error alerts (docs/admin-settings.md). */
import { render, type RenderedEmail } from './email.templates';

/**
 * To an administrator who keeps error alerts on and takes e-mail: something keeps failing (a kind
 * of background job, a webhook subscription's endpoint). At most one per cause and day.
 */
export function errorAlertEmail(name: string, input: { title: string; lines: readonly string[]; action: { label: string; url: string } }): RenderedEmail {
  return render(
    'error-alert',
    input.title.slice(0, 200),
    [
      `Hi ${name},`,
      ...input.lines,
      'You get this alert at most once a day for each cause. Turn error alerts off in Admin Settings → Notifications.',
    ],
    input.action,
  );
}
