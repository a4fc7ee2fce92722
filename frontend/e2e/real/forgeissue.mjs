// "From an issue" in the New task form against the real backend and the fake
// forge run as a process on loopback (GitHub and GitLab), as a fresh user has
// it: no working directory. The form takes the repository as it does for a
// prompt (the field and its Recent picker); without one it refuses before the
// forge is asked. Bad addresses (a forge Boof Runner does not know, an issue
// that is not there, an HTML answer) each show one line and store nothing;
// a good one makes the task in the chosen repository from the issue.
import { assert } from '../harness.mjs';
import { startFakeForge } from './forge.mjs';

/** The flow for one forge kind; `issueURL(ff, n)` is the web address of issue n as that forge writes it. */
function fromIssueFlow(kind, issueURL) {
  return {
    async seed(world) {
      // An earlier task makes the repository a recent one; then the user has no working directory.
      world.add('An earlier task', '--title', 'Earlier');
      world.cli('settings', 'set', 'workingDirectory', '""');
      const ff = await startFakeForge(world, '', kind);
      world.cli('settings', 'set', 'forge.hosts', JSON.stringify([{ host: ff.host, kind, api: ff.api }]));
      await ff.control('issue', { n: '4', title: 'Add a greeting', body: 'Write the mock file, please.', label: 'docs' });
      return { ff };
    },
    async run(page, { world, shot, seeded }) {
      const { ff } = seeded;
      const form = page.getByRole('form', { name: 'New task' });
      const alert = form.getByRole('alert');
      const stored = () => world.list().length;
      const issuesAsked = async () => (await ff.requests()).filter((r) => r.includes('/issues/')).length;
      /** Submits url; returns the one line the form shows. */
      const refused = async (url, want) => {
        await form.getByRole('textbox', { name: /Issue URL/ }).fill(url);
        await form.getByRole('button', { name: 'Add task from issue' }).click();
        await alert.filter({ hasText: want }).waitFor();
        const said = (await alert.innerText()).trim();
        assert(!said.includes('\n'), `one line (${JSON.stringify(said)})`);
        assert(stored() === 1, `nothing was stored for ${url}`);
        return said;
      };
      try {
        await form.getByRole('checkbox', { name: /From an issue/ }).check();
        const repoField = form.getByRole('textbox', { name: /^Repository/ });
        await form.getByText('(required: no working directory is set)').waitFor();
        // No repository: refused before the forge is asked.
        await refused(issueURL(ff, 4), 'Choose a repository folder first');
        assert((await issuesAsked()) === 0, 'the forge was not asked');
        await shot(`forge-issue-${kind}-needs-repository`);

        // The same Recent picker as for a prompt.
        await form.getByRole('group', { name: 'Recent repositories' }).getByRole('button', { name: 'repo' }).click();
        assert((await repoField.inputValue()) === world.repo, `the recent repository is chosen (${await repoField.inputValue()})`);

        await refused('https://example.org/me/app/issues/1', 'https://example.org/me/app/issues/1 is not on a forge Boof Runner knows');
        await refused(issueURL(ff, 99), /was not found on /);
        await ff.control('fail', { match: '/issues/', times: '1', status: '200', type: 'text/html', body: '<html><body>Sign in</body></html>' });
        await refused(issueURL(ff, 4), /^Nothing changed: .* answered with text\/html \(HTTP 200\) instead of its API/);
        await shot(`forge-issue-${kind}-html`);

        // A good one: the task from the issue, in the chosen repository.
        await form.getByRole('textbox', { name: /Issue URL/ }).fill(issueURL(ff, 4));
        await form.getByRole('button', { name: 'Add task from issue' }).click();
        await form.getByRole('status').filter({ hasText: 'Added “Add a greeting” to the queue.' }).waitFor();
        assert((await alert.count()) === 0, 'no error shown');
        const made = world.list().find((t) => t.title === 'Add a greeting');
        assert(made, `a task from the issue (${world.list().map((t) => t.title)})`);
        assert(made.repo === world.repo, `it runs in the chosen repository (${made.repo})`);
        assert(made.prompt.includes('Write the mock file, please.') && made.prompt.includes(issueURL(ff, 4)), `its prompt is the issue's (${made.prompt})`);
        assert(JSON.stringify(made.labels) === '["docs"]', `its labels are the issue's (${made.labels})`);
        await shot(`forge-issue-${kind}-made`);
      } finally {
        await ff.stop();
      }
    },
  };
}

export const forgeIssueFlows = {
  'forge-task-from-github-issue': fromIssueFlow('github', (ff, n) => `${ff.url}/me/app/issues/${n}`),
  'forge-task-from-gitlab-issue': fromIssueFlow('gitlab', (ff, n) => `${ff.url}/me/app/-/issues/${n}`),
};
