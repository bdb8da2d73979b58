import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';

async function writeClipboard(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the legacy path
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  let ok: boolean;
  try {
    ok = document.execCommand?.('copy') ?? false;
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/** Copies `value` and says so in a toast (`what`: "Host ID"); true when it was copied. */
export async function copyText(value: string, what: string): Promise<boolean> {
  const ok = await writeClipboard(value);
  if (ok) toast.success(`${what} copied to the clipboard.`);
  else toast.error(`Could not copy the ${what.toLowerCase()}.`, { description: 'Select the text and copy it with Ctrl+C.' });
  return ok;
}

/** Copies `value`; the visible text stays the same so tests and screen readers can find it. */
export function CopyButton({ value, label, what }: { value: string; label: string; what: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (await copyText(value, what)) {
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    }
  };
  return (
    <button type="button" className="button button-small" onClick={() => void copy()}>
      {copied ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
      {label}
    </button>
  );
}
