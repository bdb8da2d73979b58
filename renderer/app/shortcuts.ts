/** The window's keyboard shortcuts: one list, read by the handler (useShortcuts.ts) and the `?` dialog. */
import { sectionMeta } from './sections';

export const isMac = typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform);
/** The modifier of the window's shortcuts as shown: ⌘ on macOS, Ctrl elsewhere. */
export const MOD = isMac ? '⌘' : 'Ctrl';

/** With MOD: collapses or expands the sidebar (Ctrl+B, as in editors; the browser gives it no meaning). */
export const SIDEBAR_KEY = 'B';

export interface Shortcut {
  /** Each entry is keys pressed together; several entries are alternatives ("↑ / ↓"). */
  chords: string[][];
  what: string;
}

export interface ShortcutGroup {
  title: string;
  shortcuts: Shortcut[];
}

export const SHORTCUTS: ShortcutGroup[] = [
  {
    title: 'Anywhere',
    shortcuts: [
      { chords: [[MOD, 'K']], what: 'Open the command palette: go to a page, a connection, a device or an alarm' },
      ...sectionMeta.map((m, i) => ({ chords: [[MOD, String(i + 1)]], what: `Go to ${m.label}` })),
      { chords: [[MOD, SIDEBAR_KEY]], what: 'Collapse or expand the sidebar (collapsed, it shows the pages’ icons)' },
      { chords: [['?']], what: 'Show these shortcuts (outside a text field)' },
      { chords: [['Tab']], what: 'From the top of the window: “Skip to content”, past the sidebar' },
    ],
  },
  {
    title: 'Dialogs, lists and the palette',
    shortcuts: [
      { chords: [['Esc']], what: 'Close the dialog, the palette or the connection list' },
      { chords: [['↑'], ['↓']], what: 'Move through the choices of a list' },
      { chords: [['Enter']], what: 'Take the highlighted choice' },
    ],
  },
  {
    title: 'Devices table',
    shortcuts: [
      { chords: [['↑'], ['↓']], what: 'Move to the previous or next device' },
      { chords: [['Home'], ['End']], what: 'Move to the first or last device' },
      { chords: [['PgUp'], ['PgDn']], what: 'Move a page up or down' },
      { chords: [['Enter']], what: 'Open the focused device’s details' },
    ],
  },
  {
    title: 'Alarm stream',
    shortcuts: [
      { chords: [['↑'], ['↓'], ['k'], ['j']], what: 'Move to the previous or next alarm' },
      { chords: [['Home'], ['End']], what: 'Move to the newest or oldest alarm' },
      { chords: [['PgUp'], ['PgDn']], what: 'Move a page up or down' },
      { chords: [['Enter']], what: 'Open the focused alarm’s details and history' },
      { chords: [['Space']], what: 'Select or deselect the focused alarm' },
      { chords: [['Shift', 'click']], what: 'Select every alarm from the last checkbox clicked' },
      { chords: [['a']], what: 'Acknowledge the selection (or the focused alarm) with a note' },
    ],
  },
  {
    title: 'ZTA host table',
    shortcuts: [
      { chords: [['↑'], ['↓']], what: 'Move to the previous or next host' },
      { chords: [['Home'], ['End']], what: 'Move to the first or last host' },
      { chords: [['PgUp'], ['PgDn']], what: 'Move a page up or down' },
      { chords: [['Enter']], what: 'Open the focused host’s details: why it has its band, its history' },
    ],
  },
];

/** Keys as one label: "Ctrl+K", "⌘K". */
export const keyLabel = (keys: string[]) => keys.join(isMac ? '' : '+');
