import type { ComponentType } from 'react';
import { SimulateButton } from '../../features/policies/simulator';
import { ObjectScreenTools } from '../../features/policy-objects/components/objects-page-header';

/**
 * A policy-object screen (locations, apps, web categories…) with "Test a request" — the policies feature's
 * simulator — in its header. Composed here because features never import each other; app/routes.ts wraps each
 * object route's screen with it.
 */
export function withSimulator(screen: { Component: ComponentType }): { Component: ComponentType } {
  const Screen = screen.Component;
  function ObjectScreen() {
    return (
      <ObjectScreenTools.Provider value={<SimulateButton />}>
        <Screen />
      </ObjectScreenTools.Provider>
    );
  }
  return { Component: ObjectScreen };
}
