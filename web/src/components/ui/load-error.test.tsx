import { Children, isValidElement, type ReactElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './button';
import { LoadError } from './load-error';

/** The Button elements LoadError renders (its own tree, without rendering Button itself). */
function buttonsOf(node: ReactNode): ReactElement<{ onClick?: () => void; children?: ReactNode }>[] {
  const found: ReactElement<{ onClick?: () => void; children?: ReactNode }>[] = [];
  const walk = (child: ReactNode) => {
    if (!isValidElement<{ children?: ReactNode }>(child)) return;
    if (child.type === Button) found.push(child as ReactElement<{ onClick?: () => void; children?: ReactNode }>);
    Children.forEach(child.props.children, walk);
  };
  walk(node);
  return found;
}

describe('LoadError', () => {
  it('shows the message in the dashed box, with Try Again when it can retry', () => {
    const html = renderToStaticMarkup(<LoadError message="The clients could not be loaded." onRetry={() => undefined} />);
    expect(html).toContain('<p>The clients could not be loaded.</p>');
    expect(html).toContain('border-dashed');
    expect(html).toMatch(/<button[^>]*>Try Again<\/button>/u);
  });

  it('calls onRetry when its button is pressed', () => {
    const onRetry = vi.fn();
    const buttons = buttonsOf(LoadError({ message: 'The agents could not be loaded.', onRetry }));
    expect(buttons).toHaveLength(1);
    expect(buttons[0]?.props.children).toBe('Try Again');
    buttons[0]?.props.onClick?.();
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('has no button without onRetry, and keeps extra content and a merged class', () => {
    const html = renderToStaticMarkup(
      <LoadError message="This client does not exist, or you cannot see it." className="p-6">
        <a href="/clients">Back</a>
      </LoadError>,
    );
    expect(html).toContain('This client does not exist, or you cannot see it.');
    expect(html).not.toContain('<button');
    expect(html).toContain('<a href="/clients">Back</a>');
    expect(html).toContain('p-6');
    expect(html).not.toContain('p-8');
  });

  it('uses the given retry label', () => {
    const html = renderToStaticMarkup(<LoadError message="Failed." onRetry={() => undefined} retryLabel="Reload" />);
    expect(html).toMatch(/<button[^>]*>Reload<\/button>/u);
    expect(html).not.toContain('Try Again');
  });
});
