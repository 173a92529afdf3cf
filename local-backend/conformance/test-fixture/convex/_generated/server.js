// Minimal stand-in for Convex codegen: the fixture only needs the generic builders.
export {
  queryGeneric as query,
  internalQueryGeneric as internalQuery,
  mutationGeneric as mutation,
  internalMutationGeneric as internalMutation,
  actionGeneric as action,
  internalActionGeneric as internalAction,
  httpActionGeneric as httpAction,
} from "convex/server";
