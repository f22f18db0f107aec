// Repositories: resolved from their provider URL (the emulator stands for a service that knows every
// repository its organization installed, so any well-formed URL resolves), and read by id.
import type { V2Handlers } from '../call.js';
import { validationFailed } from '../errors.js';
import { repoOfProviderUrl, repositoryView } from '../views/repository.js';

export const repositoryHandlers: Pick<V2Handlers, 'repositories.resolveByProviderUrl' | 'repositories.get'> =
  {
    'repositories.resolveByProviderUrl': (call, { directory }) => {
      const repo = repoOfProviderUrl(call.query.providerUrl);
      if (!repo) {
        throw validationFailed(
          `providerUrl ${JSON.stringify(call.query.providerUrl)} is not a repository URL such as https://github.com/owner/name`,
        );
      }
      const id = directory.repositoryId(repo);
      const { firstSeenAt } = directory.repositoryById(id);
      return call.page(
        [id],
        (item) => item,
        () => repositoryView(id, repo, firstSeenAt),
      );
    },
    'repositories.get': (call, { directory }) => {
      const { repo, firstSeenAt } = directory.repositoryById(call.path.id);
      return repositoryView(call.path.id, repo, firstSeenAt);
    },
  };
