// The state tabs of issue and merge request lists (a project's, a dashboard's): every tab counted at once.

/** Tab counts stop here (shown as "1000+"), as the API's X-Total stops counting. */
export const TAB_COUNT_CAP = 1000;

/** Each tab's count, the statements in the tabs' order. */
export async function tabCounts<T extends string, N>(
  tabs: readonly T[],
  count: (tab: T) => Promise<N>,
): Promise<Record<T, N>> {
  const counts = await Promise.all(tabs.map(count));
  return Object.fromEntries(tabs.map((tab, i) => [tab, counts[i]])) as Record<T, N>;
}
