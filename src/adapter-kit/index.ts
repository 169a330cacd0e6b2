/**
 * `commerce-plugin-framework/adapter-kit`: the building blocks for authors of host adapters,
 * option stores and secret ciphers — the exchange a request is answered through, body reading
 * within a limit, the result a pipeline returns, query parsing, argument compilation, the
 * cross-site check, entity-tag and store-commit helpers, base64url. A plugin author never needs
 * them: everything for plugins is in the root entry.
 *
 * Runtime-agnostic, like the root entry (no `node:` imports).
 *
 * @module commerce-plugin-framework/adapter-kit
 */
export { type ArgsValidator, type CompileArgsOptions, compileArgs } from '../rest/args/compile-args';
export { parseQueryString, type QueryRecord, type QueryValues } from '../rest/args/query-string';
export { type CrossSiteRequest, isCrossSiteWrite, type TrustedOriginSet } from '../rest/http/cross-site';
export { FetchExchange, type RestExchange, splitRequestUrl } from '../rest/http/exchange';
export { MAX_BODY_DEPTH } from '../rest/http/parse-json-body';
export { readChunksWithin, readStreamWithin } from '../rest/http/read-body';
export { JSON_CONTENT_TYPE, type RestResult, toFetchResponse } from '../rest/http/rest-result';
export { isSecretKey, maskSecretMembers } from '../rest/secret-keys';
export { buildSystemStatus } from '../rest/status-report';
export { ifMatchHolds, ifNoneMatchHolds } from '../settings/etag/entity-tag';
export { decodeBase64Url, encodeBase64Url } from '../settings/secrets/base64';
export { isMaskedEcho, maskValue } from '../settings/secrets/mask';
export { writeContextsFollowAwaits } from '../settings/writes/write-context';
export { assertValidCommit, commitLogs, keyPartition } from '../storage/store-commit';
