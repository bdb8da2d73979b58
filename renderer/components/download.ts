/**
 * Starts the browser's download of a file: an address (main's offer of an export, same origin:
 * the page's cookie goes with it) or a Blob made in the window (a CSV of results).
 */
export function download(source: string | Blob, fileName: string): void {
  const url = typeof source === 'string' ? source : URL.createObjectURL(source);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  if (typeof source !== 'string') setTimeout(() => URL.revokeObjectURL(url), 1000);
}
