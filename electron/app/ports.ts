/** What the composition root needs from the platform: Electron adapters in desktop mode, Node ones elsewhere. */
import type { UpdateStatus } from '../../shared/model/updates';
import type { Logger } from '../log';
import type { SettingsBackend, Vault } from '../store/ports';

// The storage ports live with the store (a lower layer); re-exported here for the composition root.
export type { SettingsBackend, Vault } from '../store/ports';

export interface PlatformAdapters {
  mode: 'desktop' | 'browser';
  dataDir: string;
  vault: Vault;
  settings: SettingsBackend;
  logger: Logger;
  version: string;
  /** Opens `dataDir` in the file manager (desktop only); it takes no path, so a request cannot name one. */
  openDataDir?(): Promise<void>;
  /** Ports for the demo simulators; 0 picks free ones. Desktop default 9182/9183. */
  demoPorts?: { basic: number; oauth: number };
  /**
   * Desktop only: main's own save dialog (the window never names a path); undefined when the
   * operator cancelled. Without it (browser mode) files are offered as downloads.
   */
  saveFile?(o: { title: string; defaultName: string; filters: Array<{ name: string; extensions: string[] }> }): Promise<string | undefined>;
  /**
   * Desktop only: loads a route of the window (`#/…`) in a hidden window, waits until the page
   * says it is ready, and prints it to PDF (Electron's printToPDF).
   */
  printToPdf?(route: string): Promise<Uint8Array>;
  /**
   * Desktop only: a system notification (Electron's `Notification`) for new alarms (C-31). Without
   * it (browser mode) main sends `alarms.notification` to the window, which uses the browser's.
   */
  notify?(title: string, body: string): void;
  /** Desktop only: the app's updates (issue 23.7; platform/updater.ts). Browser mode has none. */
  updater?: UpdaterPort;
}

/** What the app may ask of the desktop's updater; each answers the status after it. */
export interface UpdaterPort {
  status(): UpdateStatus;
  check(): Promise<UpdateStatus>;
  download(): Promise<UpdateStatus>;
  /** Quits and installs the downloaded update; refuses when none is downloaded. */
  install(): Promise<{ installing: boolean }>;
  /** Calls `listener` with every new status; answers the unsubscribe function. */
  onChange(listener: (s: UpdateStatus) => void): () => void;
}
