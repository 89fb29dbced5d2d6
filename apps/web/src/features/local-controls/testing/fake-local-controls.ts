import {
  type Gateway,
  gatewayEndpoints,
  type LocalControlsView,
  localControlsEndpoints,
  type PolicyLists,
  policyEndpoints,
  policyObjectEndpoints,
} from '@palisade/contracts';
import { apiError, type FakeApi, fakeApi, keysetPage } from '../../../testing/fake-api';
import {
  BERLIN,
  BERLIN_VIEW,
  CATEGORIES,
  FEEDS,
  GEO,
  MUNICH,
  MUNICH_VIEW,
  OLD_SITE,
  POLICY_LISTS,
} from './fixtures';

/** Options of {@link fakeLocalControlsApi}: what the tenant has. */
export interface FakeLocalControlsOptions {
  gateways?: Gateway[];
  views?: LocalControlsView[];
  policies?: PolicyLists;
}

/**
 * The fake API of the four screens: the site gateways, every gateway's controls (a save replaces them and
 * answers the new view, as the server does) and the look-ups the screens choose from.
 */
export function fakeLocalControlsApi({
  gateways = [BERLIN, MUNICH, OLD_SITE],
  views = [BERLIN_VIEW, MUNICH_VIEW],
  policies = POLICY_LISTS,
}: FakeLocalControlsOptions = {}): FakeApi {
  const saved = new Map(views.map((view) => [view.gatewayId, view]));
  const allPolicies = [...policies.user, ...policies.device, ...policies.qos];
  return fakeApi()
    .on(gatewayEndpoints.listGateways, () => keysetPage(gateways))
    .on(localControlsEndpoints.listLocalControls, () => ({ items: [...saved.values()] }))
    .on(
      localControlsEndpoints.getLocalControls,
      ({ params }) => saved.get(params.id) ?? apiError('not_found'),
    )
    .on(localControlsEndpoints.putLocalControls, ({ params, body }) => {
      const before = saved.get(params.id);
      if (!before) return apiError('not_found');
      const view: LocalControlsView = {
        ...before,
        ...body,
        policies: body.policyIds.flatMap((id) => {
          const policy = allPolicies.find((candidate) => candidate.id === id);
          return policy ? [{ id, name: policy.name, type: policy.type, enabled: policy.enabled }] : [];
        }),
        updatedAt: '2026-03-02T10:00:00.000Z',
      };
      saved.set(params.id, view);
      return view;
    })
    .on(policyEndpoints.listPolicies, () => policies)
    .on(policyObjectEndpoints.listCategories, () => CATEGORIES)
    .on(policyObjectEndpoints.listFeeds, () => FEEDS)
    .on(policyObjectEndpoints.getGeoControls, () => GEO);
}
