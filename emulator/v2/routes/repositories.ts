// Repositories: resolved from their provider URL (the emulator stands for a service that knows every
// repository its organization installed, so any well-formed URL resolves), and read by id.
import type { V2Handlers } from '../call.js';
import { V2Error } from '../errors.js';
import { repoOfProviderUrl, repositoryView } from '../views/repository.js';

export const repositoryHandlers: Pick<V2Handlers, 'repositories.resolveByProviderUrl' | 'repositories.get'> =
  {
    'repositories.resolveByProviderUrl': (call, { directory }) => {
      const repo = repoOfProviderUrl(call.query.providerUrl);
      // A malformed URL and one that names no repository are the same answer (the document's 404).
      if (!repo) {
        throw new V2Error(
          404,
          'PROVIDER_URL_NOT_FOUND',
          `providerUrl ${JSON.stringify(call.query.providerUrl)} names no repository; give one such as https://github.com/owner/name`,
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
