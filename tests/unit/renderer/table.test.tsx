// @vitest-environment jsdom
/**
 * The app's one table (components/Table.tsx) on its own: what its three former copies each did
 * alone now holds for every table. The pages' tests drive it through the real main.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Table, type TableColumn, type TableSort } from '../../../renderer/components/Table';
import { installBrowserGaps } from './support/browser-gaps';
import { stubScrollerSize } from './support/layout';

installBrowserGaps();
let unstub: () => void;
beforeAll(() => {
  unstub = stubScrollerSize();
});
afterAll(() => unstub());

interface Item {
  id: number;
  name: string;
}
const items: Item[] = Array.from({ length: 500 }, (_, i) => ({ id: i, name: `item-${String(i).padStart(3, '0')}` }));
const columns: readonly TableColumn<Item>[] = [
  { id: 'name', header: 'Name', className: 'col-name', cell: (it) => it.name },
  { id: 'id', header: 'Number', className: 'col-id', cell: (it) => String(it.id), descFirst: true },
];

afterEach(cleanup);

describe('Table', () => {
  it('a sortable header sorts in its column’s first direction, and a second click turns it around', async () => {
    const seen: TableSort[] = [];
    function Sorted() {
      const [sort, setSort] = useState<TableSort>({ key: 'name', desc: false });
      return <Table label="Items" columns={columns} rows={items} sort={sort} onSort={(s) => (seen.push(s), setSort(s))} rowHeight={30} />;
    }
    const user = userEvent.setup();
    render(<Sorted />);
    const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(name) });
    expect(header('Name')).toHaveAttribute('aria-sort', 'ascending');
    await user.click(within(header('Number')).getByRole('button'));
    expect(seen.at(-1)).toEqual({ key: 'id', desc: true });
    expect(header('Number')).toHaveAttribute('aria-sort', 'descending');
    await user.click(within(header('Number')).getByRole('button'));
    expect(seen.at(-1)).toEqual({ key: 'id', desc: false });
    await user.click(within(header('Name')).getByRole('button'));
    expect(seen.at(-1)).toEqual({ key: 'name', desc: false });
  });

  it('draws only the rows in view; an item not read yet is a loading row that Enter and Space leave alone', async () => {
    const opened: number[] = [];
    const selected: number[] = [];
    const user = userEvent.setup();
    render(
      <Table<Item>
        label="Items"
        columns={columns}
        count={items.length}
        rowAt={(i) => (i === 1 ? undefined : items[i])}
        onOpen={(it) => opened.push(it.id)}
        onSelect={(it) => selected.push(it.id)}
        rowHeight={30}
        rowTestId={() => 'row'}
      />,
    );
    await screen.findAllByTestId('row');
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(60);
    expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '501');
    expect(rows[1]).toHaveTextContent('Loading…');
    expect(rows[0]).toHaveAttribute('tabindex', '0');
    rows[0]!.focus();
    await user.keyboard(' ');
    await user.keyboard('{ArrowDown}');
    await user.keyboard('{Enter} ');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(selected).toEqual([0]);
    expect(opened).toEqual([2]);
  });

  it('a list whose rows take no focus: no tab stop on its rows, and no sort buttons', async () => {
    render(<Table label="Items" columns={columns} rows={items.slice(0, 3)} rowKey={(it) => it.id} rowHeight={30} rowTestId={(it) => `row-${it.id}`} />);
    const row = await screen.findByTestId('row-2');
    expect(row).not.toHaveAttribute('tabindex');
    expect(row).toHaveAttribute('data-row-key', '2');
    expect(within(screen.getByRole('table')).queryAllByRole('button')).toEqual([]);
  });
});
