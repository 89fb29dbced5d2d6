import { ApiTokensPanel } from '../components/api-tokens-panel';

/** The API tokens on their own, for the app layer to place (it shows them under /settings). */
export function Component() {
  return <ApiTokensPanel />;
}
