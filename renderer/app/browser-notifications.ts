/**
 * Alarm notifications in browser mode (C-31): main sends `alarms.notification` (the severities the
 * operator chose, summed, at most one per connection every few seconds) and the window shows it
 * with the Web Notifications API once the operator allowed it. Permission is asked only when they
 * press the button for it (Settings), never on load. The desktop app shows its own from main.
 */
import type { EventPayload } from '../../shared/contract';

export type NotificationPermissionState = NotificationPermission | 'unsupported';

export function notificationPermission(): NotificationPermissionState {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** Asks the browser (on a button press). */
export async function requestNotificationPermission(): Promise<NotificationPermissionState> {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.requestPermission();
}

/** Shows one, if allowed; a click brings the window forward and opens the alarm (`open`). */
export function showAlarmNotification(n: EventPayload<'alarms.notification'>, open: (n: EventPayload<'alarms.notification'>) => void): void {
  if (notificationPermission() !== 'granted') return;
  try {
    // One per connection at a time: the next replaces it instead of stacking up.
    const shown = new Notification(n.title, { body: n.body, tag: `northbound-alarms-${n.profileId}` });
    shown.onclick = () => {
      window.focus();
      open(n);
      shown.close();
    };
  } catch {
    // A browser that allows notifications only from a service worker (Chrome on Android): none then.
  }
}
