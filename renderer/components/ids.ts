/**
 * Long opaque identifiers (host IDs, customer IDs, tenant GUIDs) as a table or a chart shows them:
 * their first characters and an ellipsis, the whole ID in the title beside it (issue 22.7: names
 * before IDs). A short ID is shown whole.
 */

/** IDs up to this length are shown whole: cutting them would save no room. */
export const SHORT_ID_MAX = 12;

/** "6a591bd12cdad84e…" → "6a591bd1…"; an ID of 12 characters or fewer as it is. */
export function shortId(id: string, keep = 8): string {
  const t = id.trim();
  return t.length <= Math.max(SHORT_ID_MAX, keep + 1) ? t : `${t.slice(0, keep)}…`;
}

/** A name where one is known, else the shortened ID; the title says both in full. */
export function nameOrId(id: string, name: string | undefined): { text: string; title: string } {
  return name ? { text: name, title: `${name} (${id})` } : { text: shortId(id), title: id };
}
