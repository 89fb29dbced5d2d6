import { describe, expect, it } from 'vitest';
import {
  INITIAL_LAYOUT,
  LAYOUT_STORAGE_KEY,
  type LayoutState,
  layoutReducer,
  loadLayout,
  saveLayout,
} from './layout-state';

const run = (state: LayoutState, ...actions: Parameters<typeof layoutReducer>[1][]) =>
  actions.reduce(layoutReducer, state);

describe('layoutReducer: sidebar', () => {
  it('starts open, sticky, enabled, with no section open and not boxed', () => {
    expect(INITIAL_LAYOUT).toEqual({
      sidebar: { isOpen: true, isSticky: true, isDisabled: false, menu: null },
      isBoxed: false,
      stickyBeforeBoxed: true,
    });
  });

  it('toggles, shows and hides', () => {
    const hidden = run(INITIAL_LAYOUT, { type: 'sidebar/toggle' });
    expect(hidden.sidebar.isOpen).toBe(false);
    expect(run(hidden, { type: 'sidebar/toggle' }).sidebar.isOpen).toBe(true);
    expect(run(hidden, { type: 'sidebar/show' }).sidebar.isOpen).toBe(true);
    expect(run(INITIAL_LAYOUT, { type: 'sidebar/hide' }).sidebar.isOpen).toBe(false);
  });

  it('returns the same state when show/hide change nothing', () => {
    expect(layoutReducer(INITIAL_LAYOUT, { type: 'sidebar/show' })).toBe(INITIAL_LAYOUT);
    const hidden = run(INITIAL_LAYOUT, { type: 'sidebar/hide' });
    expect(layoutReducer(hidden, { type: 'sidebar/hide' })).toBe(hidden);
  });

  it('becomes disabled and enabled again', () => {
    const disabled = run(INITIAL_LAYOUT, { type: 'sidebar/setDisabled', isDisabled: true });
    expect(disabled.sidebar.isDisabled).toBe(true);
    expect(run(disabled, { type: 'sidebar/setDisabled', isDisabled: false }).sidebar.isDisabled).toBe(false);
  });

  it('opens one menu section at a time and closes it on a second toggle', () => {
    const users = run(INITIAL_LAYOUT, { type: 'sidebar/toggleMenu', menu: 'users' });
    expect(users.sidebar.menu).toBe('users');
    expect(run(users, { type: 'sidebar/toggleMenu', menu: 'tenant' }).sidebar.menu).toBe('tenant');
    expect(run(users, { type: 'sidebar/toggleMenu', menu: 'users' }).sidebar.menu).toBeNull();
    expect(run(users, { type: 'sidebar/setMenu', menu: null }).sidebar.menu).toBeNull();
  });

  it('changes stickiness outside the boxed layout', () => {
    const loose = run(INITIAL_LAYOUT, { type: 'sidebar/setSticky', isSticky: false });
    expect(loose.sidebar.isSticky).toBe(false);
    expect(loose.isBoxed).toBe(false);
  });
});

describe('layoutReducer: boxed layout', () => {
  it('boxing unsticks the sidebar; unboxing restores the stickiness from before', () => {
    const boxed = run(INITIAL_LAYOUT, { type: 'layout/toggleBoxed' });
    expect(boxed.isBoxed).toBe(true);
    expect(boxed.sidebar.isSticky).toBe(false);
    const unboxed = run(boxed, { type: 'layout/toggleBoxed' });
    expect(unboxed.isBoxed).toBe(false);
    expect(unboxed.sidebar.isSticky).toBe(true);
  });

  it('keeps a sidebar that was not sticky unsticky after leaving the box', () => {
    const state = run(
      INITIAL_LAYOUT,
      { type: 'sidebar/setSticky', isSticky: false },
      { type: 'layout/setBoxed', isBoxed: true },
      { type: 'layout/setBoxed', isBoxed: false },
    );
    expect(state.sidebar.isSticky).toBe(false);
  });

  it('making the sidebar sticky leaves the boxed layout', () => {
    const state = run(
      INITIAL_LAYOUT,
      { type: 'layout/setBoxed', isBoxed: true },
      { type: 'sidebar/setSticky', isSticky: true },
    );
    expect(state.isBoxed).toBe(false);
    expect(state.sidebar.isSticky).toBe(true);
  });

  it('does not touch the rest of the sidebar', () => {
    const before = run(INITIAL_LAYOUT, { type: 'sidebar/hide' }, { type: 'sidebar/setMenu', menu: 'users' });
    const boxed = run(before, { type: 'layout/toggleBoxed' });
    expect(boxed.sidebar).toEqual({ ...before.sidebar, isSticky: false });
  });

  it('setBoxed to the current value is a no-op', () => {
    expect(layoutReducer(INITIAL_LAYOUT, { type: 'layout/setBoxed', isBoxed: false })).toBe(INITIAL_LAYOUT);
  });
});

describe('loadLayout / saveLayout', () => {
  function memoryStorage() {
    const map = new Map<string, string>();
    return {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
      map,
    };
  }

  it('round-trips boxed and the stickiness chosen before boxing', () => {
    const storage = memoryStorage();
    saveLayout(run(INITIAL_LAYOUT, { type: 'layout/toggleBoxed' }), storage);
    expect(JSON.parse(storage.map.get(LAYOUT_STORAGE_KEY)!)).toEqual({ isBoxed: true, isSticky: true });
    const loaded = loadLayout(storage);
    expect(loaded.isBoxed).toBe(true);
    expect(loaded.sidebar.isSticky).toBe(false);
    expect(run(loaded, { type: 'layout/toggleBoxed' }).sidebar.isSticky).toBe(true);
  });

  it('falls back to the defaults on missing or unreadable data', () => {
    const storage = memoryStorage();
    expect(loadLayout(storage)).toBe(INITIAL_LAYOUT);
    storage.map.set(LAYOUT_STORAGE_KEY, '{oops');
    expect(loadLayout(storage)).toBe(INITIAL_LAYOUT);
  });
});
