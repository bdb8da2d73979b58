/** Microsoft Defender for Endpoint connector (vendor B): plain Node, never electron. Other modules are imported from their own files. */
export { DefenderConnector } from './connector';
export type { DefenderConnectorOptions } from './types';
