/**
 * `React.lazy` with a `preload()`: once preloaded, the component renders at once, without
 * suspending. A page the server pre-rendered (server/http/web-app.ts) is taken over by the app in
 * one commit: main.tsx preloads its layout and screen before the first render, so React never
 * shows a Suspense fallback (a blank page) in place of the pre-rendered one.
 */
import { createElement, lazy, type ComponentType } from 'react';

export type Preloadable = ComponentType & { preload: () => Promise<void> };

export function lazyWithPreload(factory: () => Promise<{ default: ComponentType }>): Preloadable {
  let loaded: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  const load = () =>
    (loading ??= factory().then(
      (module) => {
        loaded = module.default;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(() => load().then(() => ({ default: loaded! })));
  function Preloaded() {
    return loaded ? createElement(loaded) : createElement(Lazy);
  }
  return Object.assign(Preloaded, { preload: load });
}
