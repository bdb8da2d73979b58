/**
 * The app never runs without Chromium's sandbox (issue 23.3). On Ubuntu 24.04 and later the kernel
 * lets only programs an AppArmor profile allows create the user namespaces the sandbox needs; the
 * deb installs such a profile, an AppImage cannot, and electron-builder's AppImage launcher then
 * adds `--no-sandbox` to start anyway. A packaged app started without the sandbox refuses, and
 * says why and what to do instead: install the deb, or have a profile added for the AppImage.
 * From a clone (`npm start`) it only warns: a developer's container may need it.
 */
export interface SandboxCheck {
  /** Whether Chromium's command line carries the switch (app.commandLine.hasSwitch). */
  hasSwitch(name: string): boolean;
}

export interface SandboxRefusal {
  title: string;
  message: string;
  detail: string;
}

export const NO_SANDBOX_SWITCHES = ['no-sandbox', 'disable-setuid-sandbox'] as const;

/** The refusal to show, or undefined when the sandbox is on (or this is a development start). */
export function sandboxRefusal(commandLine: SandboxCheck, o: { packaged: boolean; env: NodeJS.ProcessEnv; argv: readonly string[] }): SandboxRefusal | undefined {
  const off = NO_SANDBOX_SWITCHES.find((s) => commandLine.hasSwitch(s) || o.argv.includes(`--${s}`));
  if (!off || !o.packaged) return undefined;
  const appImage = o.env.APPIMAGE;
  if (appImage) {
    return {
      title: 'Northbound cannot start from this AppImage',
      message: 'This system does not let the AppImage use the sandbox Northbound needs, and Northbound does not run without it.',
      detail:
        'Linux here (Ubuntu 24.04 and later, and others) allows the user namespaces of Chromium’s sandbox only to programs an AppArmor profile names, and an AppImage cannot bring one; its launcher would turn the sandbox off instead.\n\n' +
        'Install the .deb package of Northbound: it installs the profile.\n\n' +
        `Or ask an administrator to add an AppArmor profile for ${appImage} that allows "userns", then start it again.`,
    };
  }
  return {
    title: 'Northbound does not run without its sandbox',
    message: `Northbound was started with --${off}, which turns off the sandbox that keeps what its window shows from reaching this computer.`,
    detail: `Start it without --${off}. If it does not start then, the system’s sandbox support is missing: on Linux, install the .deb package (it brings the AppArmor profile the sandbox needs).`,
  };
}
