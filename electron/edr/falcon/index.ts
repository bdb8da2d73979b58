/** CrowdStrike Falcon (EDR vendor A) connector: plain Node, never electron. */
export { FalconConnector, FALCON_BATCH, FALCON_PATHS, MAX_CONCURRENCY, type FalconConnectorOptions, type FalconPollProgress, type FalconPollSummary } from './connector';
export { FALCON_CLOUDS, FALCON_CLOUD_BASE_URLS, parseFalconCloud, type FalconCloud, type FalconCloudSetting } from './regions';
export { FalconErrorCodes } from './errors';
export { RatePacer, type PacerOptions } from './pacer';
export { DEFAULT_RETRY, type RetryPolicy } from './retry';
export { DEFAULT_SENSOR_WINDOW_MS, parseAssessments, parseDevices, toHostRecord, sensorRunning, toPlatform } from './merge';
