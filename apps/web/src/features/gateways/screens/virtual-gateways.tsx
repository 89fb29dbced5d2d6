import { GatewaysList } from '../components/gateways-list';

/** `/cybernodes/virtual`: the tenant's own (virtual) cybernodes; the add form starts with that kind. */
export function Component() {
  return <GatewaysList fixedKind="virtual" />;
}
