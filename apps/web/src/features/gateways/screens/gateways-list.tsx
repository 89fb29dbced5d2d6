import { GatewaysList } from '../components/gateways-list';

/** `/cybernodes/list`: every gateway of the tenant — cybernodes, virtual cybernodes and site gateways. */
export function Component() {
  return <GatewaysList />;
}
