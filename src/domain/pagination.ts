/** The page arithmetic of pains.list (DESIGN §4): 1-based positions, 0/0 for an empty page. */
export interface PageWindow {
  page: number;
  pageSize: number;
  pageCount: number;
  offset: number;
  rangeStart: number;
  rangeEnd: number;
}

export function pageWindow(totalCount: number, page: number, pageSize: number, rowsReturned: number): PageWindow {
  const offset = (page - 1) * pageSize;
  return {
    page,
    pageSize,
    pageCount: Math.ceil(totalCount / pageSize),
    offset,
    rangeStart: rowsReturned === 0 ? 0 : offset + 1,
    rangeEnd: rowsReturned === 0 ? 0 : offset + rowsReturned,
  };
}
