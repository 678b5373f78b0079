SUBTASKS: dict = {}
