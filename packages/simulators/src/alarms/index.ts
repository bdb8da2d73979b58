/**
 * Fault management of the management node simulator: what the package's testing entry and the
 * server use of it. The assembly is in setup.ts, the options and names in options.ts.
 */
export { ALARM_TYPES } from './catalog';
export { DEFAULT_FLAP_DOWN_MS, type AlarmGeneratorOptions } from './generator';
export type { SimAlarm, SimAlarmEvent, SimAlarmKey, SimSeverity, SimHandlingState } from './model';
export { ALARM_LIST_KEY, alarmMessage, alarmRecord } from './wire';
export * from './routes';
export { DEFAULT_ALARM_EXCHANGE, DEFAULT_DIRECTOR_HOSTNAME, ROUTING_KEY_PATTERN, type SimAlarmControl, type SimAlarmOptions } from './options';
export { createSimAlarms } from './setup';
