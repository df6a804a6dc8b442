/** The realtime module: the WebSocket hub that pushes events to the portal and the widget. */
export { RealtimeHub, type RealtimeLoaders } from './realtime.hub';
