// A table keeps only the columns with something in them: a column the service filled for no row says
// nothing, and reads as if the value were empty rather than unknown. A table with no rows keeps its headers.
export function filledColumns(headers: string[], rows: string[][]): { headers: string[]; rows: string[][] } {
  if (!rows.length) return { headers, rows };
  const kept = headers.map((_, column) => rows.some((row) => row[column]?.trim()));
  const keep = <T>(cells: T[]) => cells.filter((_, column) => kept[column]);
  return { headers: keep(headers), rows: rows.map(keep) };
}
