/** Microsoft Defender for Endpoint connector (vendor B): plain Node, never electron. */
export { DefenderConnector } from './connector';
export { diagnose, checkPermissions, permissionProblems, explainForbidden, type DefenderDiagnosis, type PermissionCheck } from './diagnose';
export { DefenderErrorCodes, tokenError, aadstsCode } from './errors';
export { SlidingWindowLimiter, mapPool, scaleWindows, realClock, type LimiterClock } from './limiter';
export { CveAggregator, factsFromVulnerabilities, hostRecord, platformOf, enumValue, cvssOf, CRITICAL_CVSS, NO_CVES, type CveFacts } from './mapping';
export { backoffMs, parseRetryAfter } from './retry';
export { TokenProvider, decodeJwt, type JwtClaims } from './token';
export {
  DEFAULT_API_URL,
  DEFAULT_IDP_URL,
  DEFAULT_RETRY,
  DEFENDER_RESOURCE,
  DOCUMENTED_LIMITS,
  MCAS_RESOURCE,
  REQUIRED_PERMISSIONS,
  type CycleReport,
  type DefenderConnectorOptions,
  type DefenderSecrets,
  type EndpointClass,
  type PollOptions,
  type PollProgress,
  type RateLimits,
  type RateWindow,
  type RequiredPermission,
  type RetryPolicy,
} from './types';
