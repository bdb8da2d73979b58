/**
 * A field that came from the network (a node, the bus, an EDR tenant) in the page: isolated in a
 * `<bdi>` so right-to-left letters in it cannot reorder the text around it, its bidi controls
 * shown as visible marks (shared/text.ts), and clipped with a visible mark when `max` is given.
 * Attributes (title, aria-label) take `netText` from shared/text.ts.
 */
import { netText } from '../../shared/text';

export function NetText({ text, max, className }: { text: string; max?: number; className?: string }) {
  return <bdi className={className}>{netText(text, max)}</bdi>;
}
