/**
 * The preload (sandboxed, context-isolated): exposes `window.northbound` with `invoke` and `on`
 * for the contract's channels and events. Never ipcRenderer itself. See platform/bridge.ts.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_NAME } from '../shared/contract-names';
import { createBridge } from './platform/bridge';

contextBridge.exposeInMainWorld(BRIDGE_NAME, createBridge(ipcRenderer));
