/**
 * What a page of a stored inventory list shows instead of the list: loading from the store, a
 * store that could not be read (with Try again), or an empty list (`empty`). Undefined when
 * there are rows to show.
 */
import type { ReactNode } from 'react';
import { Loading } from './QueryState';
import { formatCount } from './format';

interface StoredListQuery {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  /** The list, or (the devices, read in windows) how many it holds. */
  data?: { items: readonly unknown[] } | { total: number } | undefined;
  refetch(): unknown;
}

export function storedListState(query: StoredListQuery, what: 'devices' | 'organizations', empty: ReactNode): ReactNode | undefined {
  if (query.isPending) {
    return (
      <Loading>Loading the stored {what}…</Loading>
    );
  }
  if (query.isError) {
    return (
      <div className="empty">
        <p>
          The stored {what} could not be read: {query.error?.message}
        </p>
        <button type="button" className="button" onClick={() => void query.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  const data = query.data;
  return (data ? ('items' in data ? data.items.length : data.total) : 0) ? undefined : empty;
}

/** Records of the last fetch that could not be read: never hidden, never turned into an empty list. */
export function UnreadableNote({ count, what }: { count: number | undefined; what: 'device' | 'organization' }) {
  if (!count) return null;
  return (
    <p className="callout callout-warn" role="status" data-testid={`${what}s-unreadable`}>
      <strong>
        {formatCount(count)} {what} record{count === 1 ? '' : 's'} could not be read.
      </strong>
      <span>The node sent {count === 1 ? 'a record' : 'records'} this console does not understand; {count === 1 ? 'it is' : 'they are'} left out here and named in the log.</span>
    </p>
  );
}
