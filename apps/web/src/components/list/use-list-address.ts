import { useSearchParams } from 'react-router';

/** Reads and writes one list's state in the address (see `listStateCodec` in lib/list-state). */
export interface ListAddressCodec<S> {
  parse(params: URLSearchParams): S;
  toSearchParams(state: S): URLSearchParams;
}

/**
 * A list's state kept in the address, so Back, Forward, reloads and shared links restore the page, order,
 * search and filters. `setState` changes part of it; `search` sets the search text, back on page 1, replacing
 * the address rather than adding an entry per word.
 */
export function useListAddress<S extends { page: number; q?: string }>(codec: ListAddressCodec<S>) {
  const [searchParams, setSearchParams] = useSearchParams();
  const state = codec.parse(searchParams);
  const setState = (patch: Partial<S>, options?: { replace?: boolean }) =>
    setSearchParams((current) => codec.toSearchParams({ ...codec.parse(current), ...patch }), options);
  const search = (q: string) => setState({ q, page: 1 } as Partial<S>, { replace: true });
  return { state, setState, search };
}
