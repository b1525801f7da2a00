// The API's types, from the server's OpenAPI document (schema.d.ts is generated: `npm run types`).
import type { components } from './schema';

type Schemas = components['schemas'];
export type InteractRequest = Schemas['InteractRequest'];
export type InteractResponse = Schemas['InteractResponse'];
export type ChainAction = Schemas['ChainActionOut'];
export type ChainPartialState = Schemas['ChainPartialState'];
export type ClientObservations = Schemas['ClientObservationsIn'];
export type Verification = Schemas['VerificationOut'];
export type Contract = Schemas['ContractOut'];
export type Clause = Schemas['ClauseOut'];
export type ActiveTask = Schemas['ActiveTaskOut'];
export type TreeNode = Schemas['SemanticNodeV3'];
export type ErrorResponse = Schemas['ErrorResponse'];
export type FailureKind = NonNullable<ChainPartialState['failureKind']>;
