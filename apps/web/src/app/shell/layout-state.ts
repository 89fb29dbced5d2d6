/**
 * The shell's layout state (spec §1): the sidebar's isOpen, isSticky, isDisabled and menu, and the boxed
 * layout. A boxed layout keeps the sidebar in the box, so it cannot be sticky; making the sidebar sticky
 * again leaves the box. The stickiness chosen before boxing comes back when the box is left.
 */

/** The sidebar of spec §1. */
export interface SidebarState {
  /** Shown (on small screens: drawn over the content). */
  isOpen: boolean;
  /** Stays in view while the content scrolls. */
  isSticky: boolean;
  /** Not rendered at all (screens without navigation). */
  isDisabled: boolean;
  /** The id of the expanded menu section, or null when all are collapsed. */
  menu: string | null;
}

/** The whole layout state. */
export interface LayoutState {
  sidebar: SidebarState;
  isBoxed: boolean;
  /** The stickiness to restore when the boxed layout is left. */
  stickyBeforeBoxed: boolean;
}

export type LayoutAction =
  | { type: 'sidebar/toggle' }
  | { type: 'sidebar/show' }
  | { type: 'sidebar/hide' }
  | { type: 'sidebar/setSticky'; isSticky: boolean }
  | { type: 'sidebar/setDisabled'; isDisabled: boolean }
  | { type: 'sidebar/setMenu'; menu: string | null }
  | { type: 'sidebar/toggleMenu'; menu: string }
  | { type: 'layout/toggleBoxed' }
  | { type: 'layout/setBoxed'; isBoxed: boolean };

export const INITIAL_LAYOUT: LayoutState = {
  sidebar: { isOpen: true, isSticky: true, isDisabled: false, menu: null },
  isBoxed: false,
  stickyBeforeBoxed: true,
};

function setBoxed(state: LayoutState, isBoxed: boolean): LayoutState {
  if (isBoxed === state.isBoxed) return state;
  if (isBoxed) {
    return {
      isBoxed,
      stickyBeforeBoxed: state.sidebar.isSticky,
      sidebar: { ...state.sidebar, isSticky: false },
    };
  }
  return { ...state, isBoxed, sidebar: { ...state.sidebar, isSticky: state.stickyBeforeBoxed } };
}

/** Applies one action; returns the same object when nothing changes. */
export function layoutReducer(state: LayoutState, action: LayoutAction): LayoutState {
  const sidebar = (patch: Partial<SidebarState>): LayoutState => ({
    ...state,
    sidebar: { ...state.sidebar, ...patch },
  });
  switch (action.type) {
    case 'sidebar/toggle':
      return sidebar({ isOpen: !state.sidebar.isOpen });
    case 'sidebar/show':
      return state.sidebar.isOpen ? state : sidebar({ isOpen: true });
    case 'sidebar/hide':
      return state.sidebar.isOpen ? sidebar({ isOpen: false }) : state;
    case 'sidebar/setSticky':
      if (action.isSticky && state.isBoxed) {
        return { isBoxed: false, stickyBeforeBoxed: true, sidebar: { ...state.sidebar, isSticky: true } };
      }
      return state.sidebar.isSticky === action.isSticky ? state : sidebar({ isSticky: action.isSticky });
    case 'sidebar/setDisabled':
      return state.sidebar.isDisabled === action.isDisabled
        ? state
        : sidebar({ isDisabled: action.isDisabled });
    case 'sidebar/setMenu':
      return state.sidebar.menu === action.menu ? state : sidebar({ menu: action.menu });
    case 'sidebar/toggleMenu':
      return sidebar({ menu: state.sidebar.menu === action.menu ? null : action.menu });
    case 'layout/toggleBoxed':
      return setBoxed(state, !state.isBoxed);
    case 'layout/setBoxed':
      return setBoxed(state, action.isBoxed);
  }
}

/** Where the layout preferences are kept between visits. */
export const LAYOUT_STORAGE_KEY = 'palisade.layout';

/** The stored preferences (boxed, sticky) over the defaults; the sidebar starts open on every visit. */
export function loadLayout(storage: Pick<Storage, 'getItem'> = localStorage): LayoutState {
  try {
    const raw = JSON.parse(storage.getItem(LAYOUT_STORAGE_KEY) ?? 'null') as {
      isBoxed?: unknown;
      isSticky?: unknown;
    } | null;
    if (!raw) return INITIAL_LAYOUT;
    const isSticky = typeof raw.isSticky === 'boolean' ? raw.isSticky : true;
    const base: LayoutState = { ...INITIAL_LAYOUT, sidebar: { ...INITIAL_LAYOUT.sidebar, isSticky } };
    return raw.isBoxed === true ? setBoxed(base, true) : base;
  } catch {
    return INITIAL_LAYOUT;
  }
}

/** Stores the preferences that {@link loadLayout} reads. */
export function saveLayout(state: LayoutState, storage: Pick<Storage, 'setItem'> = localStorage): void {
  try {
    const isSticky = state.isBoxed ? state.stickyBeforeBoxed : state.sidebar.isSticky;
    storage.setItem(LAYOUT_STORAGE_KEY, JSON.stringify({ isBoxed: state.isBoxed, isSticky }));
  } catch {
    // Preferences are a convenience; blocked storage only means they are not remembered.
  }
}
