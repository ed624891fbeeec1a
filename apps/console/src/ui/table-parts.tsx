import { Pagination, Table } from '@mantine/core';

/** The header of a table's actions column: named for screen readers, blank on screen. */
export function ActionsHeader({ label = 'Actions' }: { label?: string }) {
  return (
    <Table.Th>
      <span className="visually-hidden">{label}</span>
    </Table.Th>
  );
}

/** Page links of a list of `total` items, `pageSize` a page, each button named. */
export function Pager(props: {
  total: number;
  pageSize: number;
  page: number;
  onChange: (page: number) => void;
}) {
  return (
    <Pagination
      total={Math.max(1, Math.ceil(props.total / props.pageSize))}
      value={props.page}
      onChange={props.onChange}
      aria-label="Pages"
      getControlProps={(control) => ({ 'aria-label': `${control} page` })}
      getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
    />
  );
}
