import { ifNoneMatchHolds } from '../../settings/etag/entity-tag';
import type { RestRequest } from '../http/rest-request';
import { RestResponse } from '../http/rest-response';

/**
 * The answer of a read that has an entity tag (CONTRACT §8): 304 without a body when
 * `If-None-Match` names the current tag, else 200 with `body`; both carry `ETag`.
 */
export function taggedAnswer(request: RestRequest, tag: string, body: unknown, status = 200): RestResponse {
  const condition =
    request.method === 'GET' || request.method === 'HEAD' ? request.headers.get('if-none-match') : null;
  if (condition !== null && ifNoneMatchHolds(condition, tag))
    return new RestResponse(null, 304, { ETag: tag });
  return new RestResponse(body, status, { ETag: tag });
}
