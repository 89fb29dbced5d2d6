/** The policy simulator, for the page headers of the policy and policy-object screens. */
export { SimulateButton, type SimulateButtonProps } from './simulate-button';
