/** Bundle shapes to table rows, shared by `signals import` and the digest pipeline. */
import { normalizePermalinkKey } from '../domain/permalink.ts';
import { toJson } from '../store/json.ts';
import type { PostsTable } from '../store/schema.ts';
import type { BundlePost } from './bundle.ts';

export function postRowOf(projectId: string, post: BundlePost): PostsTable {
  return {
    project_id: projectId,
    id: post.id,
    url: post.url,
    permalink: post.permalink,
    permalink_key: normalizePermalinkKey(post.permalink),
    community: post.community,
    title: post.title,
    selftext: post.selftext,
    author: post.author,
    score: post.score,
    post_created_at: post.postCreatedAt,
    comments: toJson(post.comments),
  };
}
