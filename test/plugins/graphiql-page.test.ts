import { describe, expect, it } from 'vitest';
import { pageHtml } from '../../src/gateway/plugins/graphiql-page.ts';

/** The page around GraphiQL (what it looks like in a browser: test/e2e/graphiql-browser.test.ts). */
describe('GraphiQL page', () => {
  const paths = { js: '/a.js', css: '/a.css', favicon: '/a.ico', editorWorkerService: '/w.js', jsonWorker: '/j.js', graphqlWorker: '/g.js' };
  const toolsOf = (defaultQuery: string) => /"defaultEditorToolsVisibility":("variables"|false)/.exec(pageHtml(paths, 'chaingraph', defaultQuery))?.[1];

  it('opens the variables pane only when the examples declare variables', () => {
    expect(toolsOf('query A { __typename }\nquery B { __typename }')).toBe('false');
    expect(toolsOf('')).toBe('false');
    expect(toolsOf('query A { __typename }\nquery B($n: Int) { __typename }')).toBe('"variables"');
    // A document GraphiQL cannot run as is: the pane stays open, as GraphiQL's default.
    expect(toolsOf('query A {')).toBe('"variables"');
  });

  it('keeps what it embeds inside its script and title', () => {
    const html = pageHtml(paths, '<b>x</b>', '# </script><script>alert(1)</script>\nquery A { __typename }');
    expect(html).not.toContain('</script><script>alert(1)');
    expect(html).toContain('<title>&#60;b&#62;x&#60;/b&#62;</title>');
  });
});
