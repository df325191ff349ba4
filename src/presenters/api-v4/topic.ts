// v4's Projects::Topic entity.
import type { TopicView } from '../../views/topic-views.ts';

export function presentTopic(view: TopicView) {
  return {
    id: view.topic.id,
    name: view.topic.name,
    title: view.topic.title,
    description: view.topic.description,
    total_projects_count: view.projectsCount,
    organization_id: 1,
    avatar_url: null,
  };
}
