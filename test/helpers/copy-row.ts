// Fills a PostgreSQL table fast for plan tests: copies of one row made by one statement.
import type pg from 'pg';

/**
 * `count` copies of row `id` of `table`, each column as it was unless `set` gives an SQL expression of g
 * (1 to count); the id of the first copy (the copies' ids follow it).
 */
export async function copyRow(
  client: pg.Client,
  table: string,
  id: number,
  count: number,
  set: Record<string, string>,
): Promise<number> {
  const { rows: columns } = await client.query<{ name: string }>(
    `select column_name as name from information_schema.columns
     where table_schema = current_schema() and table_name = $1 and column_name <> 'id'`,
    [table],
  );
  const names = columns.map(({ name }) => `"${name}"`).join(', ');
  const values = columns.map(({ name }) => set[name] ?? `r."${name}"`).join(', ');
  const { rows } = await client.query<{ first: number }>(
    `with made as (insert into ${table} (${names})
       select ${values} from ${table} r, generate_series(1, $2) g where r.id = $1 returning id)
     select min(id) as first from made`,
    [id, count],
  );
  return Number(rows[0]!.first);
}
