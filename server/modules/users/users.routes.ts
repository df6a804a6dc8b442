import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createUserInput, findUsersQuery, findUsersResponse, updateRoleInput, userIdParams, userSummary } from '../../../common/api/users';
import { requireUser } from '../../http/access';
import { type UsersService, toUserSummary } from './users.service';

export const usersRoutes: FastifyPluginAsyncZod<{ usersService: UsersService }> = async (app, { usersService }) => {
  const tags = ['users'];

  app.get(
    '/api/v1/users',
    {
      config: { access: ['admin'] },
      schema: { tags, summary: 'Users with their role and status', querystring: findUsersQuery, response: { 200: findUsersResponse } },
    },
    async (request) => ({ users: await usersService.findUsers(request.query) }),
  );

  app.post(
    '/api/v1/users',
    {
      config: { access: ['admin'] },
      schema: { tags, summary: 'Create an active, verified user with a role', body: createUserInput, response: { 201: userSummary } },
    },
    async (request, reply) => {
      const actor = requireUser(request);
      const user = await usersService.createUser({ ...request.body, assignedBy: actor.id });
      return reply.status(201).send(toUserSummary(user));
    },
  );

  app.patch(
    '/api/v1/users/:id/role',
    {
      config: { access: ['admin'] },
      schema: { tags, summary: "Change a user's role (not one's own, never the last admin)", params: userIdParams, body: updateRoleInput, response: { 200: userSummary } },
    },
    async (request) => usersService.changeRole(requireUser(request), request.params.id, request.body.role),
  );
};
