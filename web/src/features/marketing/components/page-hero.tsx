import type { ReactNode } from 'react';

export function PageHero({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="border-b bg-gradient-to-b from-primary/10 to-transparent">
      <div className="mx-auto max-w-6xl px-4 py-16 text-center md:py-20">
        <h1 className="text-4xl font-bold tracking-tight md:text-5xl">{title}</h1>
        {children ? <div className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">{children}</div> : null}
      </div>
    </section>
  );
}

export const primaryLink =
  'inline-flex h-10 items-center justify-center rounded-md bg-primary px-5 text-sm font-medium text-primary-foreground shadow-xs transition-colors hover:bg-primary/90';
export const outlineLink =
  'inline-flex h-10 items-center justify-center rounded-md border border-input px-5 text-sm font-medium transition-colors hover:bg-accent';
